import { readFile } from 'node:fs/promises';
import { SERVICE_TYPES } from '@od/contracts';
import type { Command } from 'commander';
import { type Ctx, enc, parseJsonObject, UsageError } from '../lib/context.ts';

/**
 * A store's day (docs/decisions.md "A store's day"): `store open|close|pause|resume|hours|timeout`,
 * each one PATCH /admin/v1/merchants/{merchantId}. With `--service`, only that service type changes
 * (the other keeps its switch and pause).
 */
export function registerStoreDay(store: Command, ctx: Ctx): void {
  const path = (id: string) => `/admin/v1/merchants/${enc(id)}`;
  const patch = (id: string, body: unknown) => ctx.client().request('PATCH', path(id), body);
  /** the `services` list changing one service type, the others given as they are */
  const oneService = async (id: string, service: string, change: Record<string, unknown>) => {
    const type = service.toUpperCase();
    if (!(SERVICE_TYPES as readonly string[]).includes(type))
      throw new UsageError(`--service is one of ${SERVICE_TYPES.join(', ')}`);
    const view = (await ctx.client().request('GET', path(id))) as {
      serviceSwitches: { serviceType: string }[];
    };
    const listed = view.serviceSwitches.map((s) => s.serviceType);
    return {
      services: [...listed, ...(listed.includes(type) ? [] : [type])].map((t) =>
        t === type ? { serviceType: t, ...change } : { serviceType: t },
      ),
    };
  };
  const either = async (id: string, o: { service?: string }, store: Record<string, unknown>, svc = store) =>
    ctx.print(await patch(id, o.service ? await oneService(id, o.service, svc) : store));

  store
    .command('open <merchantId>')
    .description('open the store (status AVAILABLE), or one service type with --service')
    .option('--service <type>', 'DELIVERY or TAKEOUT')
    .action((id: string, o: { service?: string }) => either(id, o, { status: 'AVAILABLE' }));
  store
    .command('close <merchantId>')
    .description('close the store (status UNAVAILABLE): intake answers 409 store_closed until opened')
    .option('--service <type>', 'DELIVERY or TAKEOUT')
    .action((id: string, o: { service?: string }) => either(id, o, { status: 'UNAVAILABLE' }));
  store
    .command('pause <merchantId>')
    .description('pause the store for N minutes (1..1440) with a reason; it reopens by itself')
    .requiredOption('--minutes <n>', 'minutes from now')
    .requiredOption('--reason <text>', 'why (shown to the team; up to 200 characters)')
    .option('--service <type>', 'DELIVERY or TAKEOUT')
    .action((id: string, o: { minutes: string; reason: string; service?: string }) =>
      either(id, o, { pause: { minutes: Number(o.minutes), reason: o.reason } }),
    );
  store
    .command('resume <merchantId>')
    .description('end a pause now')
    .option('--service <type>', 'DELIVERY or TAKEOUT')
    .action((id: string, o: { service?: string }) => either(id, o, { pause: null }));
  store
    .command('hours <merchantId>')
    .description(
      'set the opening hours: { weekHours: [{ dayOfWeek, timePeriods: { startTime, endTime } }], holidayHours? } (local HH:MM)',
    )
    .option('--file <path>', 'a JSON file holding the hours')
    .option('--json <object>', 'the hours inline')
    .option('--clear', 'no hours: open whenever the store is open')
    .option('--zone <iana>', 'the time zone of the hours, e.g. America/Sao_Paulo')
    .action(async (id: string, o: { file?: string; json?: string; clear?: boolean; zone?: string }) => {
      const given = [o.file, o.json, o.clear].filter(Boolean).length;
      if (given > 1 || (given === 0 && !o.zone))
        throw new UsageError('give one of --file, --json or --clear (and/or --zone)');
      const hours = o.clear
        ? null
        : o.file
          ? parseJsonObject(await readFile(o.file, 'utf8'), o.file)
          : o.json
            ? parseJsonObject(o.json)
            : undefined;
      ctx.print(
        await patch(id, {
          ...(hours === undefined ? {} : { serviceHours: hours }),
          ...(o.zone ? { timeZone: o.zone } : {}),
        }),
      );
    });
  store
    .command('timeout <merchantId> <seconds>')
    .description('confirmation timeout: a PENDING order is cancelled by the platform after it (>= 30)')
    .action(async (id: string, seconds: string) =>
      ctx.print(await patch(id, { confirmationTimeoutSeconds: Number(seconds) })),
    );
}

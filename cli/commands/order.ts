import { CANCELLATION_DECISIONS, ORDER_ACTIONS, ORDER_CHANNELS, ORDER_TYPES } from '@od/contracts';
import { type Command, Option } from 'commander';
import { type Ctx, enc, parseJsonObject, patchCommand } from '../lib/context.ts';

export function registerOrder(program: Command, ctx: Ctx): void {
  const order = program.command('order').description('orders, as an ordering channel or the merchant panel');
  /** POSTs `body` to `/admin/v1/orders/{orderId}/<sub>` and prints the answer. */
  const post = async (orderId: string, sub: string, body?: unknown) =>
    ctx.print(await ctx.client().request('POST', `/admin/v1/orders/${enc(orderId)}/${sub}`, body));

  order
    .command('create <merchantId>')
    .description('POST /admin/v1/merchants/{merchantId}/orders: create an order as a channel would')
    .addOption(new Option('--type <type>', 'order type').choices(ORDER_TYPES).default('DELIVERY'))
    .addOption(new Option('--channel <channel>', 'ordering channel').choices(ORDER_CHANNELS))
    .option('--payment-pending', 'online payment pending: the order waits in PENDING_PAYMENT')
    .option(
      '--json <object>',
      'more order fields (items, customer, delivery, schedule...), merged into the body',
    )
    .action(
      async (
        merchantId: string,
        o: { type: string; channel?: string; paymentPending?: boolean; json?: string },
      ) => {
        const body: Record<string, unknown> = { type: o.type };
        if (o.channel) body.channel = o.channel;
        if (o.paymentPending) body.paymentPending = true;
        Object.assign(body, parseJsonObject(o.json));
        ctx.print(await ctx.client().request('POST', `/admin/v1/merchants/${enc(merchantId)}/orders`, body));
      },
    );

  order
    .command('pay <orderId>')
    .description(
      'POST /admin/v1/orders/{orderId}/payment: online payment confirmed (PENDING_PAYMENT -> PENDING)',
    )
    .action((orderId: string) => post(orderId, 'payment'));

  order
    .command('action <orderId> <action>')
    .description(`POST /admin/v1/orders/{orderId}/{action}: a panel click (${ORDER_ACTIONS.join(', ')})`)
    .option('--json <object>', 'body (e.g. a cancellation reason)')
    .action((orderId: string, action: string, o: { json?: string }) =>
      post(orderId, enc(action), o.json ? parseJsonObject(o.json) : undefined),
    );

  // `<name> <orderId> --by <who> [--reason <text>]`: POSTs { by, reason? } to the order's `path`
  const byAndReason = (name: string, path: string, description: string, by: Option) =>
    order
      .command(`${name} <orderId>`)
      .description(`POST /admin/v1/orders/{orderId}/${path}: ${description}`)
      .addOption(by)
      .option('--reason <text>', 'cancellation reason')
      .action((orderId: string, o: { by: string; reason?: string }) =>
        post(orderId, path, { by: o.by, ...(o.reason ? { reason: o.reason } : {}) }),
      );
  byAndReason(
    'cancel',
    'cancel',
    'cancellation by the customer or the merchant',
    new Option('--by <who>', 'who cancels').choices(['CUSTOMER', 'MERCHANT']).default('MERCHANT'),
  );
  byAndReason(
    'cancellation-request',
    'cancellation-request',
    'the customer or the platform asks the point of sale to cancel (Open Delivery ORDER_CANCELLATION_REQUEST)',
    new Option('--by <who>', 'who asks').choices(['CUSTOMER', 'PLATFORM']).default('CUSTOMER'),
  );

  order
    .command('cancellation-decision <orderId> <decision>')
    .description(
      `POST /admin/v1/orders/{orderId}/cancellation-request/{decision}: the platform answers a point of sale's Open Delivery requestCancellation (${CANCELLATION_DECISIONS.join(' | ')})`,
    )
    .option('--reason <text>', 'reason (of a denial)')
    .action((orderId: string, decision: string, o: { reason?: string }) =>
      post(orderId, `cancellation-request/${enc(decision)}`, o.reason ? { reason: o.reason } : {}),
    );

  patchCommand(order, ctx, {
    name: 'edit <orderId>',
    description: 'PATCH /admin/v1/orders/{orderId}: edit content (emits MODIFIED)',
    fields: 'fields to change',
    path: (id) => `/admin/v1/orders/${enc(id)}`,
  });

  order
    .command('courier <orderId> <eventType>')
    .description('POST /admin/v1/orders/{orderId}/courier: courier tracking (COURIER_ASSIGNED, ...)')
    .option('--json <object>', 'the delivery block', '{}')
    .action((orderId: string, eventType: string, o: { json: string }) =>
      post(orderId, 'courier', { eventType, delivery: parseJsonObject(o.json) }),
    );
}

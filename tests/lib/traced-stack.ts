import { flushTracing, initTracing, shutdownTracing } from '@od/telemetry';
import { type StackOptions, startOtlpReceiver, startStack, type TestStack } from '@od/testing';

/**
 * What the tracing tests share: this process's tracer exporting (http/json, 100 ms batches) to an
 * OTLP receiver with the given sampling (`OTEL_TRACES_SAMPLER[_ARG]`; none: always on), then a stack
 * in the same process. The tracer is the process's: one sampling per test file.
 */
export async function startTracedStack(sampling: Record<string, string>, opts: StackOptions) {
  const receiver = await startOtlpReceiver();
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    ...sampling,
  });
  if (!(await initTracing('od-test', process.env))) throw new Error('tracing did not start');
  let stack: TestStack | undefined;
  const stop = async () => {
    await stack?.stop();
    await shutdownTracing();
    await receiver.close();
  };
  try {
    stack = await startStack(opts);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    stack,
    receiver,
    stop,
    /** flushes a few times, so spans ended meanwhile (consumers, the relay) arrive too */
    async settle() {
      for (let i = 0; i < 3; i++) {
        await flushTracing();
        await new Promise((r) => setTimeout(r, 300));
      }
    },
  };
}

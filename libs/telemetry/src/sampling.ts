// The SDK's samplers: loaded with provider.ts only when tracing is configured.
import { type Attributes, type Context, type Link, type SpanKind, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { SAMPLED_AT_EDGE } from './edge.ts';

type Env = Record<string, string | undefined>;

/**
 * The operator's sampling (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG, as the SDK reads them) and
 * the probability it gives a new root: what the edge draws against. The SDK's own reading is not
 * exported; this follows it (unknown sampler: parent-based always on; a ratio missing or outside
 * [0, 1]: 1).
 */
export function samplingFromEnv(
  env: Env,
  warn?: (m: string) => void,
): { sampler: Sampler; rootRatio: number } {
  const name = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  const ratio = () => {
    const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const p = raw ? Number(raw) : Number.NaN;
    if (p >= 0 && p <= 1) return p;
    warn?.(`OTEL_TRACES_SAMPLER_ARG=${raw ?? ''} is not a probability in [0, 1]; sampling everything`);
    return 1;
  };
  switch (name) {
    case 'always_on':
      return { sampler: new AlwaysOnSampler(), rootRatio: 1 };
    case 'always_off':
      return { sampler: new AlwaysOffSampler(), rootRatio: 0 };
    case 'parentbased_always_off':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), rootRatio: 0 };
    case 'traceidratio': {
      const p = ratio();
      return { sampler: new TraceIdRatioBasedSampler(p), rootRatio: p };
    }
    case 'parentbased_traceidratio': {
      const p = ratio();
      return { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(p) }), rootRatio: p };
    }
    default:
      if (name !== 'parentbased_always_on')
        warn?.(`OTEL_TRACES_SAMPLER=${name} not supported; using parentbased_always_on`);
      return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), rootRatio: 1 };
  }
}

/**
 * The process's sampler: a root under EDGE_SAMPLED_ROOT is sampled (the edge drew it with the
 * operator's ratio already: drawing again would sample ratio² of requests); everything else, children
 * included, is the operator's sampler's.
 */
export class EdgeAwareSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}
  shouldSample(
    ctx: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    // the key stays in every context below the root: only the root itself is decided here
    if (ctx.getValue(SAMPLED_AT_EDGE) === true && !trace.getSpan(ctx))
      return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    return this.inner.shouldSample(ctx, traceId, name, kind, attributes, links);
  }
  toString(): string {
    return `EdgeAwareSampler{${this.inner.toString()}}`;
  }
}

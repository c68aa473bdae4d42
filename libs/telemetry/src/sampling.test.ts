import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { EDGE_SAMPLED_ROOT } from './edge.ts';
import { EdgeAwareSampler, samplingFromEnv } from './sampling.ts';

const TRACE = 'ffffffffffffffffffffffffffffffff'; // the last trace id any ratio below 1 samples
const decide = (s: { shouldSample: EdgeAwareSampler['shouldSample'] }, ctx = ROOT_CONTEXT) =>
  s.shouldSample(ctx, TRACE, 'GET /x', SpanKind.SERVER, {}, []).decision;

describe('samplingFromEnv', () => {
  it('gives the root probability of each OTEL_TRACES_SAMPLER', () => {
    const ratio = (OTEL_TRACES_SAMPLER?: string, OTEL_TRACES_SAMPLER_ARG?: string) =>
      samplingFromEnv({ OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG }).rootRatio;
    expect(ratio()).toBe(1);
    expect(ratio('always_on')).toBe(1);
    expect(ratio('always_off')).toBe(0);
    expect(ratio('parentbased_always_off')).toBe(0);
    expect(ratio('traceidratio', '0.25')).toBe(0.25);
    expect(ratio('parentbased_traceidratio', '0.1')).toBe(0.1);
    expect(ratio('parentbased_traceidratio', '0')).toBe(0);
  });

  it('warns and samples everything on a sampler or ratio it cannot read, as the SDK does', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(samplingFromEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, warn).rootRatio).toBe(1);
    const bad = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' };
    expect(samplingFromEnv(bad, warn).rootRatio).toBe(1);
    expect(samplingFromEnv({ ...bad, OTEL_TRACES_SAMPLER_ARG: 'x' }, warn).rootRatio).toBe(1);
    expect(warnings).toHaveLength(3);
  });

  it('keeps the parent-based samplers parent-based', () => {
    const { sampler } = samplingFromEnv({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    const parent = (flags: number) =>
      trace.setSpanContext(ROOT_CONTEXT, {
        traceId: TRACE,
        spanId: 'ffffffffffffffff',
        traceFlags: flags,
        isRemote: true,
      });
    expect(decide(sampler, parent(TraceFlags.SAMPLED))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(sampler, parent(TraceFlags.NONE))).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(sampler)).toBe(SamplingDecision.NOT_RECORD);
  });
});

describe('EdgeAwareSampler', () => {
  const never = new EdgeAwareSampler(samplingFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }).sampler);

  it('samples a root the edge drew, without drawing again', () => {
    expect(decide(never, EDGE_SAMPLED_ROOT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(never)).toBe(SamplingDecision.NOT_RECORD);
  });

  it('leaves the spans below that root to the operator sampler', () => {
    const child = trace.setSpanContext(EDGE_SAMPLED_ROOT, {
      traceId: TRACE,
      spanId: 'ffffffffffffffff',
      traceFlags: TraceFlags.SAMPLED,
    });
    expect(decide(never, child)).toBe(SamplingDecision.NOT_RECORD);
  });
});

import { type Context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';

/** Set in the parent context of a root span whose sampling the edge already drew (`sampleAtEdge`). */
export const SAMPLED_AT_EDGE = createContextKey('od.sampled-at-edge');

/** The parent of a root span the edge sampled: the sampler (sampling.ts) records it as is. */
export const EDGE_SAMPLED_ROOT: Context = ROOT_CONTEXT.setValue(SAMPLED_AT_EDGE, true);

/** The `errors` map of ValidationProblemDetails and of the admin form: field path -> messages. */
export type FieldErrors = Record<string, string[]>;

/** A zod issue as far as the error bodies read it (this lib does not depend on zod). */
export interface IssueLike {
  path?: readonly PropertyKey[];
  message?: string;
  code?: string;
  /** the issues of each branch of a union none of whose branches matched */
  errors?: readonly (readonly IssueLike[])[];
}

/**
 * A union none of whose branches matched (e.g. an order item given by reference or in full) says
 * only "Invalid input": report the issues of the branch that came closest (fewest issues) instead,
 * so the client learns which field broke which limit.
 */
function expandUnion(
  issue: IssueLike,
  base: readonly PropertyKey[],
): { path: PropertyKey[]; message: string }[] {
  const path = [...base, ...(issue.path ?? [])];
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    const closest = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    if (closest.length > 0) return closest.flatMap((i) => expandUnion(i, path));
  }
  return [{ path, message: issue.message ?? 'invalid' }];
}

/**
 * Turns zod issues into the `errors` map: `items[0].price.value`, `$` for the value itself. One
 * rule for the gateway's route validation and the bus layer's op validation.
 */
export function fieldErrorsFromIssues(issues: readonly IssueLike[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues.flatMap((i) => expandUnion(i, []))) {
    const key = issue.path.length
      ? issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
          .join('.')
          .replace(/\.\[/g, '[')
      : '$';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

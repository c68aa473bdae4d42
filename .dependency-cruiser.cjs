// Import-cycle check (`pnpm lint` runs it): dependency-cruiser, because it reads TypeScript through
// the compiler (so `.ts` specifiers, path aliases and the pnpm workspace links resolve) and tells
// type-only imports apart. Type-only edges (`import type`) are left out of the cycle rule: they are
// erased at build time and cannot change module evaluation order.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle in services/ or libs/ (docs/conventions.md, "Shape").',
      from: { path: '^(services|libs)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|generated|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};

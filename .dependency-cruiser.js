/**
 * The layers of src/, lowest first (ARCHITECTURE.md): a module may import from its own layer and the layers
 * below it, never from a layer above. `npm test` runs this through `npm run lint:layers`.
 */
const LAYERS = [
  ['schemas', 'files', 'version.ts', 'package-root.ts'],
  ['wall'],
  ['clock'],
  ['config', 'reports'],
  ['engine'],
  ['faults'],
  ['delivery'],
  ['contract'],
  ['probes'],
  ['world'],
  ['api'],
  ['openapi', 'client', 'proxy', 'relay'],
  ['mock'],
  ['drift'],
  ['http'],
  ['testing', 'msw.ts', 'index.ts'],
  ['cli'],
];

const escaped = (name) => name.replace(/[.]/g, '\\.');
const pathOf = (names) => `^src/(${names.map(escaped).join('|')})($|/)`;

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.join('-').replace(/\.ts/g, '')}`,
  comment: `${layer.join(', ')} may not import from a higher layer (${LAYERS.slice(index + 1)
    .flat()
    .join(', ')}).`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: { path: pathOf(LAYERS.slice(index + 1).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'Modules load each other in one direction only (type-only imports aside); a circle hides which part is built on which.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'every-folder-has-a-layer',
      comment: 'A new folder of src/ gets its place in LAYERS above, so its direction is decided, not found out.',
      severity: 'error',
      from: { path: '^src/', pathNot: pathOf(LAYERS.flat()) },
      to: {},
    },
    {
      name: 'http-is-transports-only',
      comment: 'src/http holds the node, msw and express adapters and TLS; nothing below it reaches into it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(http|testing|cli|msw\\.ts|index\\.ts)' },
      to: { path: '^src/http/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};

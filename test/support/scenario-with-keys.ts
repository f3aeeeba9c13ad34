/**
 * A scenario file (YAML) whose entity has `count` unknown keys after its real fields, one a line
 * (`  key00000: 1`, 14 bytes each, the first on line 10): 70,000 of them make the 957 KB file of
 * the hostile probe, 18,000 a file just under the scenario limit. The keys are valid YAML and all
 * different, so only the schema refuses them, once per key.
 */
export function scenarioWithKeys(count: number): string {
  const lines = [
    'name: many-keys',
    'description: A scenario with many unknown keys',
    'tins: ["11111111-1"]',
    'entity:',
    '  tin: 11111111-1',
    '  country: CL',
    '  category: business',
    '  name: Comercial Prueba SpA',
    '  runs: [{ type: cl/sii, outcomes: [{ succeeded: 20s }] }]',
  ];
  for (let index = 0; index < count; index += 1) lines.push(`  key${String(index).padStart(5, '0')}: 1`);
  return `${lines.join('\n')}\n`;
}

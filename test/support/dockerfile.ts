/** One instruction of a Dockerfile, with its arguments as written (continuations joined). */
export interface DockerInstruction {
  keyword: string;
  /** The text after the keyword. */
  text: string;
  /** `--from=build` style flags, then the other words (or the JSON array of an exec form). */
  flags: Record<string, string>;
  args: string[];
}

/** One build stage: its base image, name, and instructions. */
export interface DockerStage {
  from: string;
  name: string | null;
  instructions: DockerInstruction[];
}

/**
 * Parses a Dockerfile into stages, enough to perform its steps in a test:
 * comments, line continuations, flags, exec-form JSON arrays and `KEY=value` lists.
 */
export function parseDockerfile(text: string): DockerStage[] {
  const lines = text.replace(/\\\r?\n\s*/g, ' ').split(/\r?\n/);
  const stages: DockerStage[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const words = rest.startsWith('[') ? [] : rest.split(/\s+/).filter(Boolean);
    const flags: Record<string, string> = {};
    while (words[0]?.startsWith('--')) {
      const [name, value = 'true'] = words.shift()!.slice(2).split('=');
      flags[name!] = value;
    }
    const args = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : words;
    const instruction = { keyword: keyword.toUpperCase(), text: rest, flags, args };
    if (instruction.keyword === 'FROM') {
      stages.push({ from: args[0]!, name: args[2] ?? null, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${keyword} before FROM`);
    stage.instructions.push(instruction);
  }
  return stages;
}

/** The `KEY=value` pairs of an ENV instruction. */
export function envPairs(instruction: DockerInstruction): Record<string, string> {
  return Object.fromEntries(instruction.args.map((pair) => pair.split('=') as [string, string]));
}

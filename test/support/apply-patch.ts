/**
 * Applying a unified diff with a real tool, as a user of `rst2 check --diff`
 * would: `patch -p0`, or `git apply -p0` where patch is missing (a fresh
 * Debian root may have neither; then the tests that need one skip).
 */
import { spawnSync } from 'node:child_process';

const has = (command: string, args: string[]): boolean => spawnSync(command, args).status === 0;

const TOOL: { name: string; command: string; args: string[] } | undefined = has('patch', ['--version'])
  ? { name: 'patch', command: 'patch', args: ['-p0', '--batch', '--quiet', '--no-backup-if-mismatch'] }
  : has('git', ['--version'])
    ? { name: 'git apply', command: 'git', args: ['apply', '-p0', '--whitespace=nowarn', '-'] }
    : undefined;

/** The tool that applyPatch uses, if there is one. */
export const PATCH_TOOL = TOOL?.name;

/** Applies `diff` to the files under `cwd`; throws with the tool's words if it fails. */
export function applyPatch(cwd: string, diff: string | Buffer): void {
  if (!TOOL) throw new Error('neither patch nor git is installed');
  const r = spawnSync(TOOL.command, TOOL.args, { cwd, input: diff });
  if (r.status !== 0) throw new Error(`${TOOL.name} failed (${r.status}): ${r.stdout.toString()}${r.stderr.toString()}\n${diff.toString()}`);
}

/** The package version, read from package.json at the package root (works from the sources and the built CLI). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.ts';

export function packageVersion(): string {
  const text = readFileSync(path.join(packageRoot(), 'package.json'), 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') {
    return parsed.version;
  }
  return '0.0.0';
}

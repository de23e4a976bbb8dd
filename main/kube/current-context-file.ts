/**
 * Pure: which kubeconfig file a new current-context is written to, by client-go's rules
 * (tools/clientcmd/config.go: ModifyConfig → writeCurrentContext → PathOptions.GetDefaultFilename), so
 * GPU Fleet writes where `kubectl config use-context` would:
 *   - --kubeconfig given: that file;
 *   - KUBECONFIG with one file: that file; with several: the FIRST ONE THAT EXISTS, whether or not it
 *     sets current-context (checked against kubectl 1.32: with a:b where only b sets it, kubectl writes
 *     a), else the last one;
 *   - otherwise ~/.kube/config.
 * "The first file that sets current-context" is client-go's rule only for clearing the value, which
 * GPU Fleet never does. Merging reads current-context from the first file that sets one, and the chosen
 * file is the first existing one, so the written name is the one every reader sees afterwards.
 */
import type { KubeconfigSource } from './kubeconfig-types.ts';

export function currentContextFile(
  located: { source: KubeconfigSource; files: readonly string[] },
  exists: (file: string) => boolean,
): string | null {
  const { files } = located;
  if (located.source !== 'env' || files.length <= 1) return files[0] ?? null;
  return files.find(exists) ?? files[files.length - 1] ?? null;
}

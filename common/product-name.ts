/** How a GPU product label reads for people, the same in the CLI table and the window. */

/**
 * `NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED` → `RTX 4070 Laptop GPU (shared)`; the exporter's
 * `modelName` form with spaces (`NVIDIA GeForce RTX 4070 SUPER`) reads the same way (`RTX 4070 SUPER`).
 */
export function shortProduct(product: string): string {
  const trimmed = product.trim();
  const shared = /-SHARED$/i.test(trimmed);
  const base = shared ? trimmed.replace(/-SHARED$/i, '') : trimmed;
  const words = base
    .replace(/^NVIDIA[- ]/i, '')
    .replace(/^GeForce[- ]/i, '')
    .replaceAll('-', ' ')
    .trim();
  const short = words === '' ? base : words;
  return shared ? `${short} (shared)` : short;
}

/**
 * MIG facts of a node. GFD labels (`nvidia.com/mig-<profile>.count`) and device-plugin resources
 * (`nvidia.com/mig-<profile>`) are two independent reports and real clusters let them disagree (a
 * label saying 1g.10gb while the resource says 1g.12gb). `profiles` holds the labels' version when
 * there are MIG labels, else the resources'; the resources stay in the entry's `resources`, and any
 * disagreement becomes a problem sentence, so neither fact is hidden or silently reconciled.
 */
import type { GpuProblemWords, GpuResource, MigInfo } from '../../common/inventory.ts';
import { readNumber } from './gpu-labels.ts';
import { LABEL, migProfileOfLabel, migProfileOfResource } from './labels.ts';
import { MAX_GPUS_PER_NODE } from './parse.ts';
import { problem } from './problem.ts';

type Profile = MigInfo['profiles'][number];

export function deriveMig(
  labels: Readonly<Record<string, string>>,
  product: string | null,
  count: number,
  resources: readonly GpuResource[],
  problems: GpuProblemWords[],
): MigInfo | null {
  const rawStrategy = labels[LABEL.migStrategy]?.trim();
  const strategy = rawStrategy === undefined || rawStrategy === '' ? null : rawStrategy;
  const fromLabels = labelProfiles(labels, problems);
  const fromResources = resourceProfiles(resources);
  if (fromLabels.length > 0 && (fromResources.length > 0 || strategy === 'mixed')) {
    const said = describe(fromLabels);
    const offered = describe(fromResources);
    if (said !== offered) {
      problems.push(problem('migDisagree', { said, offered }));
    }
  }
  let profiles = fromLabels.length > 0 ? fromLabels : fromResources;
  if (profiles.length === 0 && strategy === 'single' && product !== null) {
    // Under the single strategy GFD names the profile in the product (`…-MIG-1g.5gb`) and counts instances;
    // with time-slicing on top it appends `-SHARED` (`…-MIG-1g.5gb-SHARED`), which is not part of the profile.
    const profile = migProfileOfProduct(product);
    if (profile !== null) profiles = [{ profile, count }];
  }
  if (profiles.length === 0 && (strategy === null || strategy === 'none')) return null;
  return { strategy, profiles };
}

function labelProfiles(labels: Readonly<Record<string, string>>, problems: GpuProblemWords[]): Profile[] {
  const out: Profile[] = [];
  for (const key of Object.keys(labels)) {
    const profile = migProfileOfLabel(key);
    if (profile === null) continue;
    const count = readNumber(labels, key, MAX_GPUS_PER_NODE, 'profileZero', problems) ?? 0;
    out.push({ profile, count });
  }
  return out.sort(byProfile);
}

function resourceProfiles(resources: readonly GpuResource[]): Profile[] {
  const counts = new Map<string, number>();
  for (const r of resources) {
    const profile = migProfileOfResource(r.name);
    if (profile !== null) counts.set(profile, (counts.get(profile) ?? 0) + r.capacity);
  }
  return [...counts].map(([profile, count]) => ({ profile, count })).sort(byProfile);
}

function byProfile(a: Profile, b: Profile): number {
  return a.profile < b.profile ? -1 : a.profile > b.profile ? 1 : 0;
}

/** `1g.5gb ×2, 2g.10gb ×1`: also the comparison key, so equal sets read the same. */
export function describe(profiles: readonly Profile[]): string {
  return profiles.map((p) => `${p.profile} ×${p.count}`).join(', ');
}

/** The MIG profile named in a single-strategy product label, without the time-slicing `-SHARED` suffix. */
export function migProfileOfProduct(product: string): string | null {
  const profile = /-MIG-(.+?)(?:-SHARED)?$/.exec(product)?.[1];
  return profile === undefined || profile === '' ? null : profile;
}

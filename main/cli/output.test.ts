import { describe, expect, it } from 'vitest';
import { toYaml } from './output.ts';

describe('toYaml', () => {
  it('writes a value that occurs twice out twice, with no anchor or alias', () => {
    // scan -o yaml: an unlabeled node's resources and problems are one shared empty list.
    const none: string[] = [];
    const node = { name: 'nuc2', resources: none, problems: none, sharing: { replicas: 4 } };
    const text = toYaml({ nodes: [node, { ...node, name: 'omen' }] });
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text).toContain('    resources: []\n    problems: []\n');
    expect(text.match(/replicas: 4/g)).toHaveLength(2);
  });
});

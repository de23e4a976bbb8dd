// `npm run layout`: rewrites the README's Layout block and docs/architecture.md's import order from the
// layer ranks (test/architecture/layout.ts).
import fs from 'node:fs';
import { withLayers, withLayout } from '../test/architecture/layout.ts';

fs.writeFileSync('README.md', withLayout(fs.readFileSync('README.md', 'utf8')));
const doc = 'docs/architecture.md';
fs.writeFileSync(doc, withLayers(fs.readFileSync(doc, 'utf8')));
process.stdout.write(
  'README.md and docs/architecture.md: layout regenerated from test/architecture/layers.ts\n',
);

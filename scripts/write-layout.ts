// `npm run layout`: rewrites the README's Layout block from the layer ranks (test/architecture/layout.ts).
import fs from 'node:fs';
import { withLayout } from '../test/architecture/layout.ts';

fs.writeFileSync('README.md', withLayout(fs.readFileSync('README.md', 'utf8')));
process.stdout.write('README.md: Layout regenerated from test/architecture/layers.ts\n');

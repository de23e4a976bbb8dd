#!/usr/bin/env node
// The `gpu-fleet` command. The engine is TypeScript; tsx compiles it on the fly so that the command
// works straight after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/entry.ts');

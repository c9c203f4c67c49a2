#!/usr/bin/env node
// The `slotbook` command. The sources are TypeScript, run through tsx's loader so that a checkout
// works after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');

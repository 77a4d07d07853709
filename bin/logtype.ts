#!/usr/bin/env node
import { logtypeMain } from '../src/cli/logtype-main.js';

process.exitCode = await logtypeMain(process.argv.slice(2));

#!/usr/bin/env node
// The `zkrecipes` command. A committed file rather than dist/src/main.js itself, so that npm
// can link it (and mark it executable) when installing, even before the first build.
import '../dist/src/main.js';

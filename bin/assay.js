#!/usr/bin/env node
import { main } from "../dist/shells/cli/main.js";

await main(process.argv);

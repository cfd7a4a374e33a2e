// Copies non-TypeScript runtime assets (schema.sql files) from src/ to dist/.
import { cpSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const walk = (folder) =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

for (const file of walk("src").filter((path) => path.endsWith(".sql"))) {
  cpSync(file, join("dist", relative("src", file)));
}

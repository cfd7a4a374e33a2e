// Copies non-TypeScript runtime assets from src/ to dist/: schema.sql files and the web UI's
// stylesheet and script (src/shells/web/assets/).
import { cpSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const walk = (folder) =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

for (const file of walk("src").filter(
  (path) => path.endsWith(".sql") || /[\\/]assets[\\/][^\\/]+\.(css|js|svg)$/.test(path),
)) {
  cpSync(file, join("dist", relative("src", file)));
}

/**
 * Headless Chromium for browser tests: Debian's `/usr/bin/chromium` (or ASSAY_CHROMIUM)
 * driven by playwright-core, which downloads no browser. Tests skip with a notice where it is
 * absent; in CI (env CI set) an absent Chromium fails the suite instead.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = process.env.ASSAY_CHROMIUM || "/usr/bin/chromium";
export const IN_CI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);

/** Warns (outside CI) that the browser tests of `what` are skipped. */
export function noticeMissingChromium(what: string): void {
  if (!CHROMIUM_AVAILABLE && !IN_CI) {
    console.warn(`NOTICE: skipping ${what}: ${CHROMIUM} is absent (apt-get install chromium, or set ASSAY_CHROMIUM).`);
  }
}

/** The error a CI run reports when Chromium is absent. */
export function missingChromiumError(): Error {
  return new Error(`chromium is required in CI: apt-get install chromium (looked for ${CHROMIUM}; set ASSAY_CHROMIUM)`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
  });
}

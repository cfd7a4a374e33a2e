/** What a user of a shared server has spent on models today and what their runs in progress hold (reads the store). */
import { usageOf } from "../core/usage.js";
import type { RunRecord, Store } from "../ports/store.js";
import { dayStart, type UserSpend } from "./run-policy.js";

/** `userId`'s spend since 00:00 UTC of `now`, and the cost budgets their `active` runs have not spent yet. */
export async function spendOf(
  store: Store,
  userId: string,
  active: readonly RunRecord[],
  now: number,
): Promise<UserSpend> {
  const today = await store.userUsage(userId, { since: dayStart(now) });
  let heldUsd = 0;
  for (const run of active) {
    const limit = run.request.budgets.maxCostUsd;
    if (limit === undefined) continue;
    heldUsd += Math.max(0, limit - usageOf(await store.listEvents(run.id)).knownCostUsd);
  }
  return { todayUsd: today.knownCostUsd, heldUsd, unpricedToday: today.unpriced };
}

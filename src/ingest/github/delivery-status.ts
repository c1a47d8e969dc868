import { eq } from "drizzle-orm";
import { type DeliveryStatus, githubDeliveries } from "../../db/schema";
import type { MemoryDeps } from "../../memory/deps";

/** The delivery's current status, or null when there is no such delivery. */
export async function getDeliveryStatus(
  deps: Pick<MemoryDeps, "db">,
  id: string,
): Promise<DeliveryStatus | null> {
  const [row] = await deps.db
    .select({ status: githubDeliveries.status })
    .from(githubDeliveries)
    .where(eq(githubDeliveries.id, id));
  return row?.status ?? null;
}

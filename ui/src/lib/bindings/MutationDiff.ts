import type { ChangeDiff } from "./ChangeDiff";
import type { LineCounts } from "./LineCounts";
import type { PreviousContent } from "./PreviousContent";
export type MutationDiff = { change: ChangeDiff | null, previous: PreviousContent | null, recorded: LineCounts | null, };

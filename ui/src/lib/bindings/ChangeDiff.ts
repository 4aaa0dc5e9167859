import type { ChangeKind } from "./ChangeKind";
import type { DiffBlock } from "./DiffBlock";
import type { LineCounts } from "./LineCounts";
export type ChangeDiff = { kind: ChangeKind, blocks: Array<DiffBlock>, counts: LineCounts, };

import type { DiffLine } from "./DiffLine";
import type { LineCounts } from "./LineCounts";
export type DiffBlock = { lines: Array<DiffLine>, counts: LineCounts, replace_all: boolean, };

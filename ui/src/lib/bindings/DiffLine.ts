import type { DiffOp } from "./DiffOp";
export type DiffLine = { op: DiffOp, text: string, old_no: number | null, new_no: number | null, };

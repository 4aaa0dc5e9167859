export type ChangeKind = "edit" | "multi_edit" | "write" | "notebook";

export type DiffOp = "eq" | "del" | "add";

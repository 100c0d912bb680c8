// PTO-UNIT: {"id":"PTO-SCALAR-MODEL-DISPATCH-TOP-LEVEL","surface":"scalar","classification":["model","dispatch","top-level"],"depends_on":["PTO-SCALAR-SWI"],"catalog_projection":{"catalog":"scalar-forms","family_constraints":[],"isa":"PTO Instruction Set Architecture","schema_version":2}}
// The sample scalar dispatch knows one form: SWI at scalar-forms index 0.
type ScalarOperation of enumeration {
    ScalarOperation_SWI
};

pure func ScalarOperationOfFormIndex(index: integer {0}) => ScalarOperation
begin
    return ScalarOperation_SWI;
end;

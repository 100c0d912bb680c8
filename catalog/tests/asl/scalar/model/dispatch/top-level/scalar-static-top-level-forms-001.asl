// PTO-TEST: {"id":"PTO-AVS-SCALAR-MODEL-DISPATCH-TOP-LEVEL-STATIC-001","source":"asl/scalar/model/dispatch/top-level.asl","requirements":["PTO-INST-SCALAR-SWI"],"kind":"static-invariant","summary":"scalar form 0 dispatches to SWI","pass_condition":"the form-index lookup and the SWI owner agree","related_sources":["asl/scalar/agu/SWI.asl"]}
func main() => integer
begin
    assert ScalarOperationOfFormIndex(0) == InstructionContractOperation_SWI();
    return 0;
end;

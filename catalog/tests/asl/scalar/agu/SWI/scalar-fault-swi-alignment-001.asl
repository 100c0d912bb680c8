// PTO-TEST: {"id":"PTO-AVS-AGU-SWI-ALIGN-001","source":"asl/scalar/agu/SWI.asl","requirements":["PTO-SWI-ADR-CONTRACT-001"],"kind":"fault","summary":"SWI treats an address that is not a multiple of 4 as misaligned","pass_condition":"only addresses with bits 1:0 clear pass the alignment preflight","related_sources":[]}
func main() => integer
begin
    assert InstructionContractAligned_SWI(Zeros{64} + 0xff4);
    assert !InstructionContractAligned_SWI(Zeros{64} + 0xff6);
    assert !InstructionContractAligned_SWI(Zeros{64} + 0xff5);
    return 0;
end;

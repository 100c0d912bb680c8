// PTO-TEST: {"id":"PTO-AVS-AGU-SWI-DECODE-001","source":"asl/scalar/agu/SWI.asl","requirements":["PTO-INST-SCALAR-SWI"],"kind":"decode-positive","summary":"an SWI word with SrcL 5, SrcR 6 and simm12 -3 decodes to scalar form 0","pass_condition":"the form matches and the split simm12 reassembles to -3","related_sources":["asl/scalar/model/dispatch/top-level.asl"]}
func main() => integer
begin
    // simm12 = -3: value bits 6:0 in bits 31:25, value bits 11:7 in bits 11:7.
    let word = '11111010011000101010111111011001';
    assert DecodeScalarForm(Zeros{16} :: word, 32) == 0;
    assert ScalarOperationOfFormIndex(0) == ScalarOperation_SWI;
    assert InstructionContractOperation_SWI() == ScalarOperation_SWI;
    assert InstructionContractHandler_SWI() == ScalarHandler_ExecuteScalarStore;
    assert word[19:15] == '00101';
    assert word[24:20] == '00110';
    assert InstructionContractDisplacement_SWI(word) == '111111111101';
    return 0;
end;

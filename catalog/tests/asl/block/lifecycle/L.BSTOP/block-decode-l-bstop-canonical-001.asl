// PTO-TEST: {"id":"PTO-AVS-BLOCK-L-BSTOP-DECODE-001","source":"asl/block/lifecycle/L.BSTOP.asl","requirements":["PTO-INST-BLOCK-L-BSTOP"],"kind":"decode-positive","summary":"the two L.BSTOP words decode to command form 1","pass_condition":"the 64-bit pattern, high word first in the string, selects the L.BSTOP form","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    let low = '00000000000000000000000000001111';
    let high = '00000000000000000000000000000001';
    assert DecodeCommandForm(high :: low, 64) == 1;
    assert InstructionContractMatches_L_BSTOP(CommandOperationOfForm(1));
    assert InstructionContractWordsMatch_L_BSTOP(low, high);
    assert !InstructionContractWordsMatch_L_BSTOP(high, low);
    return 0;
end;

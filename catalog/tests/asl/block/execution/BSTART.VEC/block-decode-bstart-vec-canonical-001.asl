// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-VEC-DECODE-001","source":"asl/block/execution/BSTART.VEC.asl","requirements":["PTO-INST-BLOCK-BSTART-VEC"],"kind":"decode-positive","summary":"BSTART.VEC decodes as the TEPL carrier form","pass_condition":"the alias matches the carrier operation and shares its handler","related_sources":["asl/block/execution/BSTART.TEPL.asl"]}
func main() => integer
begin
    let word = '11000000001000011001000110000001';
    assert DecodeCommandForm(Zeros{32} :: word, 32) == 0;
    assert InstructionContractMatches_BSTART_VEC(CommandOperationOfForm(0));
    assert InstructionContractHandler_BSTART_VEC() == InstructionContractHandler_BSTART_TEPL();
    assert InstructionContractAliasEngine_BSTART_VEC() == TileEngine_VEC;
    return 0;
end;

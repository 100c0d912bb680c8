// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-VEC-ENGINE-001","source":"asl/block/execution/BSTART.VEC.asl","requirements":["PTO-INST-BLOCK-BSTART-VEC","PTO-BSTART-VEC-DECISION-BINDING-001","PTO-ARCH-TEPL-ALIAS-001","PTO-ARCH-TILE-EXECUTION-ENGINE-001"],"kind":"boundary","summary":"BSTART.VEC accepts VEC operations and rejects SFU operations","pass_condition":"TMUL is accepted and TSQRT is rejected by the alias","related_sources":["asl/arch/overview/instruction-classification.asl","asl/tile/model/dispatch/top-level.asl"]}
func main() => integer
begin
    assert InstructionContractAcceptsTileOperation_BSTART_VEC(TileOperation_TMUL);
    assert !InstructionContractAcceptsTileOperation_BSTART_VEC(TileOperation_TSQRT);
    assert InstructionContractAcceptsTileOperation_BSTART_TEPL(TileOperation_TSQRT);
    return 0;
end;

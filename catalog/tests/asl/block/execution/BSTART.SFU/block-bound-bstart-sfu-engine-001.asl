// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-SFU-ENGINE-001","source":"asl/block/execution/BSTART.SFU.asl","requirements":["PTO-INST-BLOCK-BSTART-SFU","PTO-BSTART-SFU-DECISION-BINDING-001","PTO-ARCH-TEPL-ALIAS-001","PTO-ARCH-TILE-EXECUTION-ENGINE-001"],"kind":"boundary","summary":"BSTART.SFU accepts SFU operations and rejects VEC operations","pass_condition":"TCOLEXPAND is accepted and TADD is rejected by the alias","related_sources":["asl/arch/overview/instruction-classification.asl","asl/tile/model/dispatch/top-level.asl"]}
func main() => integer
begin
    assert InstructionContractAcceptsTileOperation_BSTART_SFU(TileOperation_TCOLEXPAND);
    assert !InstructionContractAcceptsTileOperation_BSTART_SFU(TileOperation_TADD);
    assert InstructionContractAcceptsTileOperation_BSTART_TEPL(TileOperation_TADD);
    return 0;
end;

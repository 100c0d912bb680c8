// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-DECODE-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL"],"kind":"decode-positive","summary":"a BSTART.TEPL word carrying TMUL and U64 decodes to command form 0 and opens a TMUL bundle","pass_condition":"form, handler, selector and DataType fields all decode as encoded, and executing the word installs an active Tile-element bundle for TMUL on U64","related_sources":["asl/block/model/schema/profile-encoding.asl","asl/arch/data-types/tile-data-types.asl"]}
func main() => integer
begin
    // DataType U64 (24) in bits 31:27, Mode 0, Function 2, fixed bits 0x19181.
    let word = '11000000001000011001000110000001';
    assert DecodeCommandForm(Zeros{32} :: word, 32) == 0;
    assert InstructionContractMatches_BSTART_TEPL(CommandOperationOfForm(0));
    assert InstructionContractHandler_BSTART_TEPL() == CommandHandler_ExecuteBundleStart;
    assert UInt(InstructionContractSelector_BSTART_TEPL(word)) == TileTeplSelector(0, 2);
    let (assigned, data_type) = TileDataTypeOfCode(InstructionContractDataType_BSTART_TEPL(word));
    assert assigned && data_type == TileDataType_U64;

    ResetProfileState();
    assert ExecuteCommandInstruction(Zeros{32} :: word, 32) == ExecutionStatus_Retired;
    assert _BundleActive && _BundleKind == BundleKind_TileElement;
    assert _BundleTileOperation == TileOperation_TMUL;
    assert _BundleDataType == TileDataType_U64;
    assert _BundlesCommitted == 0 && _PC == Zeros{64} + 4;
    return 0;
end;

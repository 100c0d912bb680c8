// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING","surface":"block","classification":["model","schema","profile-encoding"],"depends_on":["PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES"],"catalog_projection":{"catalog":"command-forms","isa":"PTO Instruction Set Architecture","reviewed_encoding_overlaps":[],"schema_version":2,"surface":"command-and-boundary"}}
type BundleKind of enumeration {
    BundleKind_Standard,
    BundleKind_Floating,
    BundleKind_System,
    BundleKind_TileElement,
    BundleKind_TileMemory,
    BundleKind_TileMatrix,
    BundleKind_FrameTemplate
};

// Four-bit BlockType codes of the PTO-v0 profile. Codes 0011, 0100 and
// 1001..1111 name no bundle kind.
pure func PTOv0BundleKindCode(kind: BundleKind) => bits(4)
begin
    case kind of
        when BundleKind_Standard => return '0000';
        when BundleKind_Floating => return '0001';
        when BundleKind_System => return '0010';
        when BundleKind_TileElement => return '0101';
        when BundleKind_TileMemory => return '0110';
        when BundleKind_TileMatrix => return '0111';
        when BundleKind_FrameTemplate => return '1000';
    end;
end;

// PE_MODE 0 disables every PE, 1..4 pick a single PE from the highest
// mask bit down, 5 and 6 pick the two and three highest PEs, 7 picks all.
pure func PTOv0PEMaskOfPEMode(mode: bits(3)) => bits(4)
begin
    let index = UInt(mode);
    if index == 0 then
        return '0000';
    elsif index <= 4 then
        return LSR('10000', index)[3:0];
    elsif index == 5 then
        return '1100';
    elsif index == 6 then
        return '1110';
    else
        return '1111';
    end;
end;

// The two command forms of the sample, by command-forms index.
type CommandOperation of enumeration {
    CommandOperation_bstart_tepl_32_d022db6dacb3,
    CommandOperation_l_bstop_64_94c7f0a5e8b3
};

type CommandSemanticHandler of enumeration {
    CommandHandler_ExecuteBundleStart,
    CommandHandler_ExecuteBundleStop
};

// The command-forms index of an instruction of length_bits bits (the low
// word first, in bits 31:0), or -1 when no form matches.
pure func DecodeCommandForm(instruction: bits(64), length_bits: integer)
    => integer
begin
    let low = instruction[31:0];
    if length_bits == 32 then
        if (low AND '00000000000011111111111111111111') ==
           '00000000000000011001000110000001' then
            return 0;
        end;
    elsif length_bits == 64 then
        if UInt(low) == 15 && UInt(instruction[63:32]) == 1 then
            return 1;
        end;
    end;
    return -1;
end;

pure func CommandOperationOfForm(index: integer {0, 1}) => CommandOperation
begin
    return if index == 0 then CommandOperation_bstart_tepl_32_d022db6dacb3
        else CommandOperation_l_bstop_64_94c7f0a5e8b3;
end;

// Bundle state. A BSTART installs a descriptor (the bundle is active, its
// BARG names the bundle kind, the Tile operation and its DataType); a stop
// or the next BSTART commits it. _BundlesCommitted counts commits.
var _BundleActive: boolean;
var _BundleKind: BundleKind;
var _BundleTileOperation: TileOperation;
var _BundleDataType: TileDataType;
var _BundlesCommitted: integer;

// B.DATR state of the open bundle. Without B.DATR the PadValue is Null.
type BundleDataAttributes of record {
    data_type: bits(5),
    secondary_type: bits(5),
    pad_value: bits(2),
    cmode: bits(3),
    rounding: bits(3),
    saturate: boolean,
    transpose: boolean
};

var _BundleDataAttributesPresent: boolean;
var _BundleDataAttributes: BundleDataAttributes;

func SetBundleDataAttributeState(data_type: bits(5), secondary_type: bits(5),
    pad_value: bits(2), cmode: bits(3), rounding: bits(3), saturate: boolean,
    transpose: boolean)
begin
    _BundleDataAttributes = BundleDataAttributes {
        data_type = data_type, secondary_type = secondary_type,
        pad_value = pad_value, cmode = cmode, rounding = rounding,
        saturate = saturate, transpose = transpose };
end;

readonly func CurrentBundlePadValue() => TilePadValue
begin
    if !_BundleDataAttributesPresent then
        return TilePad_Null;
    end;
    return TilePadValueOfCode(_BundleDataAttributes.pad_value);
end;

func ResetBundleState()
begin
    var attributes: BundleDataAttributes;
    _BundleActive = FALSE;
    _BundleKind = BundleKind_Standard;
    _BundleTileOperation = TileOperation_TADD;
    _BundleDataType = TileDataType_FP64;
    _BundlesCommitted = 0;
    _BundleDataAttributesPresent = FALSE;
    _BundleDataAttributes = attributes;
end;

// The state every test starts from: no bundle, empty Tile registers, clear
// numeric status, zero registers and memory, PC 0 and no fault.
func ResetProfileState()
begin
    ResetBundleState();
    ResetTileState();
    _NumericStatus = Zeros{5};
    ResetScalarState();
end;

// Commit the active bundle, then clear its header state.
func CommitActiveBundle()
begin
    if _BundleActive then
        _BundlesCommitted = _BundlesCommitted + 1;
    end;
    _BundleActive = FALSE;
    _BundleKind = BundleKind_Standard;
    _BundleTileOperation = TileOperation_TADD;
    _BundleDataType = TileDataType_FP64;
    _BundleDataAttributesPresent = FALSE;
end;

// BSTART.TEPL: every check comes before the predecessor retires; a
// rejected start records Fault_IllegalInstruction and changes nothing else.
func ExecuteBundleStart(word: bits(32)) => ExecutionStatus
begin
    let selector = UInt(InstructionContractSelector_BSTART_TEPL(word));
    let (assigned, data_type) =
        TileDataTypeOfCode(InstructionContractDataType_BSTART_TEPL(word));
    if !assigned || !TileSelectorAssigned(selector) then
        _LastFault = Fault_IllegalInstruction;
        return ExecutionStatus_Faulted;
    end;
    let operation = TileOperationOfSelector(selector);
    if !InstructionContractAcceptsTileOperation_BSTART_TEPL(operation) then
        _LastFault = Fault_IllegalInstruction;
        return ExecutionStatus_Faulted;
    end;
    CommitActiveBundle();
    _BundleActive = TRUE;
    _BundleKind = BundleKind_TileElement;
    _BundleTileOperation = operation;
    _BundleDataType = data_type;
    return ExecutionStatus_Retired;
end;

// Every bundle stop commits the active bundle and clears header state.
func ExecuteBundleStop() => ExecutionStatus
begin
    CommitActiveBundle();
    return ExecutionStatus_Retired;
end;

// Execute one command instruction of length_bits bits, low word in bits
// 31:0. An instruction that decodes to no form records
// Fault_IllegalInstruction. A retired instruction advances the PC.
func ExecuteCommandInstruction(instruction: bits(64), length_bits: integer)
    => ExecutionStatus
begin
    let form = DecodeCommandForm(instruction, length_bits);
    var status = ExecutionStatus_Faulted;
    if form == 0 then
        status = ExecuteBundleStart(instruction[31:0]);
    elsif form == 1 then
        status = ExecuteBundleStop();
    else
        _LastFault = Fault_IllegalInstruction;
    end;
    if status == ExecutionStatus_Retired then
        AdvancePC(length_bits DIV 8);
    end;
    return status;
end;

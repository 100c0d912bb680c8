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
// or the next BSTART commits it. _BundlesCommitted counts commits;
// _BundleBodyActive says the active bundle's body has been entered.
var _BundleActive: boolean;
var _BundleBodyActive: boolean;
var _BundleKind: BundleKind;
var _BundleTileOperation: TileOperation;
var _BundleDataType: TileDataType;
var _BundlesCommitted: integer;

// How a bundle continues after its stop. The sample models no branch
// targets: every bundle continues at the instruction after its stop.
type BundleTransfer of enumeration {
    BundleTransfer_Fallthrough,
    BundleTransfer_Conditional
};

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
    _BundleBodyActive = FALSE;
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
    _BundleBodyActive = FALSE;
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
// Without an active bundle there is nothing to stop: Fault_BundleControl.
func ExecuteBundleStop() => ExecutionStatus
begin
    if !_BundleActive then
        _LastFault = Fault_BundleControl;
        return ExecutionStatus_Faulted;
    end;
    CommitActiveBundle();
    return ExecutionStatus_Retired;
end;

// Set the PC of the instruction about to execute (the TPC).
func WriteTPC(value: bits(64))
begin
    _PC = value;
end;

// The sample has one access-control ring, ring 0, which every instruction
// runs in: selecting it changes nothing.
func SetCurrentACR(ring: integer {0})
begin
    pass;
end;

// Open a bundle of the given kind as its header would, committing the
// active one first. The sample keeps no continuation: transfer, target,
// sequential and return_target are accepted for the header's shape, and
// taken is ignored (every stop continues at the next instruction).
func BeginBundle(kind: BundleKind, transfer: BundleTransfer, target: bits(64),
    sequential: bits(64), return_target: bits(64), taken: boolean)
begin
    CommitActiveBundle();
    _BundleActive = TRUE;
    _BundleKind = kind;
end;

// Enter the body of the active bundle; without one, Fault_BundleControl.
func EnterBundleBody()
begin
    if !_BundleActive then
        _LastFault = Fault_BundleControl;
    else
        _BundleBodyActive = TRUE;
    end;
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

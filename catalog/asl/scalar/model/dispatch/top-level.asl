// PTO-UNIT: {"id":"PTO-SCALAR-MODEL-DISPATCH-TOP-LEVEL","surface":"scalar","classification":["model","dispatch","top-level"],"depends_on":["PTO-SCALAR-SWI"],"catalog_projection":{"catalog":"scalar-forms","family_constraints":[],"isa":"PTO Instruction Set Architecture","schema_version":2}}
// The sample scalar dispatch knows one form: SWI at scalar-forms index 0.
type ScalarOperation of enumeration {
    ScalarOperation_SWI
};

pure func ScalarOperationOfFormIndex(index: integer {0}) => ScalarOperation
begin
    return ScalarOperation_SWI;
end;

type ScalarSemanticHandler of enumeration {
    ScalarHandler_ExecuteScalarStore
};

type ScalarAGUAction of enumeration {
    ScalarAGU_Load,
    ScalarAGU_Store
};

type ScalarAGUAddressKind of enumeration {
    ScalarAGU_Immediate,
    ScalarAGU_Register
};

type AddressUpdateMode of enumeration {
    AddressUpdate_None,
    AddressUpdate_PreIndex,
    AddressUpdate_PostIndex
};

// Scalar state of the sample: the 32 Reg5 sources (code 0 reads zero,
// 24..27 and 28..31 the T#1..T#4 and U#1..U#4 heads, which reads do not
// consume), a 1 KiB little-endian data memory and the PC. Memory is
// addressed by PTO_XLEN-bit addresses; bytes 0x000..0x3ff exist and every
// other address is unmapped.
constant PTO_SCALAR_MEMORY_BYTES = 1024;

var _GPR: array [[32]] of bits(64);
var _Memory: array [[PTO_SCALAR_MEMORY_BYTES]] of bits(8);
var _PC: bits(64);

func ResetScalarState()
begin
    for index = 0 to 31 looplimit 32 do
        _GPR[[index]] = Zeros{64};
    end;
    for index = 0 to PTO_SCALAR_MEMORY_BYTES - 1 looplimit 1024 do
        _Memory[[index]] = Zeros{8};
    end;
    _PC = Zeros{64};
    _LastFault = Fault_None;
end;

readonly func ReadGPR(index: integer {0..31}) => bits(64)
begin
    return if index == 0 then Zeros{64} else _GPR[[index]];
end;

// Writes to code 0 are discarded.
func WriteGPR(index: integer {0..31}, value: bits(64))
begin
    if index != 0 then
        _GPR[[index]] = value;
    end;
end;

// Whether address names a byte of the data memory.
pure func MemoryByteMapped(address: bits(64)) => boolean
begin
    return UInt(address) < PTO_SCALAR_MEMORY_BYTES;
end;

// A byte access outside the data memory is a model error: the
// instructions check MemoryAccessMapped first and fault instead.
readonly func ReadMemoryByte(address: bits(64)) => bits(8)
begin
    assert MemoryByteMapped(address);
    return _Memory[[UInt(address) as integer {0..PTO_SCALAR_MEMORY_BYTES-1}]];
end;

func WriteMemoryByte(address: bits(64), value: bits(8))
begin
    assert MemoryByteMapped(address);
    _Memory[[UInt(address) as integer {0..PTO_SCALAR_MEMORY_BYTES-1}]] = value;
end;

// An access of size bytes at address lies wholly inside the data memory.
pure func MemoryAccessMapped(address: bits(64), size: integer) => boolean
begin
    return UInt(address) + size <= PTO_SCALAR_MEMORY_BYTES;
end;

func AdvancePC(bytes: integer)
begin
    _PC = _PC + bytes;
end;

// The scalar-forms index of an instruction of length_bits bits (bits
// length_bits-1:0 of instruction), or -1 when no form matches.
pure func DecodeScalarForm(instruction: bits(48), length_bits: integer)
    => integer
begin
    if length_bits == 32 &&
       (instruction[31:0] AND '00000000000000000111000001111111') ==
       '00000000000000000010000001011001' then
        return 0;
    end;
    return -1;
end;

// Execute one scalar instruction. A word that decodes to no form records
// Fault_IllegalInstruction; the PC advances only when the form retires.
func ExecuteScalarInstruction(instruction: bits(48), length_bits: integer)
    => ExecutionStatus
begin
    let form = DecodeScalarForm(instruction, length_bits);
    if form < 0 then
        _LastFault = Fault_IllegalInstruction;
        return ExecutionStatus_Faulted;
    end;
    let status = InstructionContractExecute_SWI(instruction[31:0]);
    if status == ExecutionStatus_Retired then
        AdvancePC(length_bits DIV 8);
    end;
    return status;
end;

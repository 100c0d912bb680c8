// PTO-UNIT: {"id":"PTO-ARCH-OVERVIEW-ARCHITECTURE","surface":"arch","classification":["overview","architecture"],"depends_on":[]}
// NDF-BEGIN: PTO-SOURCE-HIERARCHY
// ndf: kind=contract level=L1 layer=architecture status=accepted
// The ASL units below asl/arch, asl/block, asl/scalar and asl/tile MUST be
// the only normative owners of the architecture. Catalogs, evidence files,
// generated pages and translations MUST be derived from those units and MUST
// NOT add to or change their architectural meaning.
// NDF-END: PTO-SOURCE-HIERARCHY
// NDF-BEGIN: PTO-RELEASE-VERIFICATION
// ndf: kind=mechanism level=L2 layer=architecture status=accepted
// A release MUST record the SHA-256 digest of every canonical input in its
// manifest. A release check MUST recompute each recorded digest from the raw
// file bytes and MUST fail on any difference.
// NDF-END: PTO-RELEASE-VERIFICATION
constant PTO_XLEN = 64;

// The four normative source roots named by PTO-SOURCE-HIERARCHY.
pure func ArchitectureSourceRootCount() => integer
begin
    return 4;
end;

// The architectural faults of the sample. Fault_None: no fault recorded.
type Fault of enumeration {
    Fault_None,
    Fault_IllegalInstruction,
    Fault_BundleControl,
    Fault_DataAlignment,
    Fault_DataPage,
    Fault_TileLegality,
    Fault_TileAllocation
};

// How an executed instruction ended: it retired, or it faulted before any
// architectural effect other than recording the fault in _LastFault.
type ExecutionStatus of enumeration {
    ExecutionStatus_Retired,
    ExecutionStatus_Faulted
};

var _LastFault: Fault;

readonly func LastFault() => Fault
begin
    return _LastFault;
end;

// PTO-UNIT: {"id":"PTO-TILE-MODEL-EXECUTION-EXPANSION","surface":"tile","classification":["model","execution","expansion"],"depends_on":["PTO-TILE-MODEL-LEGALITY-DTYPE-LAYOUT"]}
// Bit-exact broadcast. Every source element is read before the first
// destination write, so a legal alias observes the old payload.
func ExecuteTileExpand(
    kind: TileExpandKind,
    axis: TileAxis,
    destination: TileIndex,
    source: TileIndex,
    second: TileIndex)
begin
    assert TileOperandsLegal_ExecuteTileExpand(kind, axis, destination,
        source, second);
    let rows = _Tiles[[destination]].valid_rows;
    let columns = _Tiles[[destination]].valid_columns;
    let captured = _Tiles[[source]];
    for r = 0 to rows - 1 do
        for c = 0 to columns - 1 do
            var value: bits(PTO_XLEN);
            if axis == TileAxis_Column then
                value = TileSnapshotElement(captured, 0, c);
            else
                value = TileSnapshotElement(captured, r, 0);
            end;
            WriteTileElement(destination, r, c, value);
        end;
    end;
    ApplyTilePadding(destination, CurrentBundlePadValue());
end;

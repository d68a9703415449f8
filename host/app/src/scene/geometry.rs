//! Where a board's cells are drawn, for every layout (squares, points, hexagons, a track),
//! turned by the scene's quarter turns. Distances are in *units*: one square, one point
//! spacing or one hexagon across; `board.rs` scales them to the screen.

use egui::{pos2, vec2, Pos2, Vec2};
use veillee_sdk::{Board, HexCoords, HexOrientation, Layout};

/// √3, for hexagons.
const ROOT3: f32 = 1.732_050_8;
/// A hexagon one unit across its flat sides is this tall between opposite corners.
const HEX_TALL: f32 = 2.0 / ROOT3;
/// Rows of pointy-top hexagons (or columns of flat-top ones) are this far apart.
const HEX_STEP: f32 = ROOT3 / 2.0;

/// The shape of a board in units, and where each cell's centre is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    layout: Layout,
    cols: u16,
    rows: u16,
    rotation: u8,
    /// The unturned size.
    size: Vec2,
}

impl Geometry {
    pub(super) fn new(board: &Board, rotation: u8) -> Self {
        let (cols, rows) = (f32::from(board.cols), f32::from(board.rows));
        let size = match board.layout {
            Layout::Squares | Layout::Points | Layout::Track => vec2(cols, rows),
            Layout::Hexes {
                orientation,
                coords,
            } => {
                // Along the hexagons' rows (pointy-top) or columns (flat-top), and across.
                let (along, across) = match orientation {
                    HexOrientation::PointyTop => (cols, rows),
                    HexOrientation::FlatTop => (rows, cols),
                };
                let shift = match coords {
                    HexCoords::Offset if across > 1.0 => 0.5,
                    HexCoords::Offset => 0.0,
                    HexCoords::Axial => 0.5 * (across - 1.0).max(0.0),
                };
                let long = along + shift;
                let short = HEX_TALL + (across - 1.0).max(0.0) * HEX_STEP;
                match orientation {
                    HexOrientation::PointyTop => vec2(long, short),
                    HexOrientation::FlatTop => vec2(short, long),
                }
            }
        };
        Geometry {
            layout: board.layout,
            cols: board.cols,
            rows: board.rows,
            rotation: rotation % 4,
            size,
        }
    }

    /// The size in units, as drawn (turned).
    pub(super) fn size(&self) -> Vec2 {
        if self.rotation % 2 == 1 {
            vec2(self.size.y, self.size.x)
        } else {
            self.size
        }
    }

    /// The layout drawn.
    pub(super) fn layout(&self) -> Layout {
        self.layout
    }

    /// Whether the board is drawn a quarter turn from its own orientation (its columns run
    /// down the screen).
    pub(super) fn sideways(&self) -> bool {
        self.rotation % 2 == 1
    }

    /// The centre of cell (col, row), in units from the top-left of the drawn board.
    pub(super) fn centre(&self, col: u16, row: u16) -> Vec2 {
        let unturned = match self.layout {
            Layout::Squares | Layout::Points | Layout::Track => {
                vec2(f32::from(col) + 0.5, f32::from(row) + 0.5)
            }
            Layout::Hexes {
                orientation,
                coords,
            } => {
                let (along, across) = match orientation {
                    HexOrientation::PointyTop => (col, row),
                    HexOrientation::FlatTop => (row, col),
                };
                let shift = match coords {
                    HexCoords::Offset => 0.5 * f32::from(across % 2),
                    HexCoords::Axial => 0.5 * f32::from(across),
                };
                let (along, across) = (f32::from(along), f32::from(across));
                let long = along + 0.5 + shift;
                let short = HEX_TALL / 2.0 + across * HEX_STEP;
                match orientation {
                    HexOrientation::PointyTop => vec2(long, short),
                    HexOrientation::FlatTop => vec2(short, long),
                }
            }
        };
        self.turn(unturned)
    }

    /// A point of the unturned board, turned by the rotation (clockwise quarter turns).
    fn turn(&self, p: Vec2) -> Vec2 {
        let Vec2 { x: w, y: h } = self.size;
        match self.rotation {
            1 => vec2(h - p.y, p.x),
            2 => vec2(w - p.x, h - p.y),
            3 => vec2(p.y, w - p.x),
            _ => p,
        }
    }

    /// The six corners of the hexagon around `centre` (on screen), `radius` from it, or
    /// `None` on a board that is not of hexagons.
    pub(super) fn hexagon(&self, centre: Pos2, radius: f32) -> Option<Vec<Pos2>> {
        let Layout::Hexes { orientation, .. } = self.layout else {
            return None;
        };
        // Screen y points down: adding a quarter turn to an angle turns it clockwise.
        let first = match orientation {
            HexOrientation::PointyTop => -90.0_f32,
            HexOrientation::FlatTop => 0.0,
        } + 90.0 * f32::from(self.rotation);
        Some(
            (0..6)
                .map(|k| {
                    let angle = (first + 60.0 * k as f32).to_radians();
                    pos2(
                        centre.x + radius * angle.cos(),
                        centre.y + radius * angle.sin(),
                    )
                })
                .collect(),
        )
    }

    /// How far a hexagon's corners are from its centre, in units.
    pub(super) const HEX_RADIUS: f32 = 1.0 / ROOT3;

    /// The size of the box around one cell's shape, in units, as drawn (turned): a square,
    /// or a hexagon one unit across its flat sides and `2 / √3` between opposite corners.
    /// Boxes of neighbouring hexagons overlap a little; [`Geometry::cell_at`] says which
    /// hexagon a point is really in.
    pub(super) fn cell_extent(&self) -> Vec2 {
        let unturned = match self.layout {
            Layout::Hexes {
                orientation: HexOrientation::PointyTop,
                ..
            } => vec2(1.0, HEX_TALL),
            Layout::Hexes {
                orientation: HexOrientation::FlatTop,
                ..
            } => vec2(HEX_TALL, 1.0),
            Layout::Squares | Layout::Points | Layout::Track => vec2(1.0, 1.0),
        };
        if self.sideways() {
            vec2(unturned.y, unturned.x)
        } else {
            unturned
        }
    }

    /// The cell whose shape holds `p` (units from the top-left of the drawn board), if any.
    /// It is the cell with the nearest centre — exactly the square, hexagon or lattice
    /// square around a point that holds `p` — unless `p` is farther than a corner of it.
    pub(super) fn cell_at(&self, p: Vec2) -> Option<(u16, u16)> {
        let reach = match self.layout {
            Layout::Hexes { .. } => Self::HEX_RADIUS,
            Layout::Squares | Layout::Points | Layout::Track => std::f32::consts::FRAC_1_SQRT_2,
        };
        let mut nearest = None;
        let mut nearest_sq = reach * reach + 1e-4;
        for row in 0..self.rows {
            for col in 0..self.cols {
                let d = (self.centre(col, row) - p).length_sq();
                if d < nearest_sq {
                    nearest_sq = d;
                    nearest = Some((col, row));
                }
            }
        }
        nearest
    }

    /// Whether (col, row) is on the grid.
    pub(super) fn contains(&self, col: u16, row: u16) -> bool {
        col < self.cols && row < self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::{Cell, Colour};

    fn board(cols: u16, rows: u16, layout: Layout) -> Board {
        Board {
            layout,
            ..Board::filled("b", cols, rows, Cell::new("x", Colour::rgb(0, 0, 0)))
        }
    }

    fn every_centre(geo: &Geometry, cols: u16, rows: u16) -> Vec<Vec2> {
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (c, r)))
            .map(|(c, r)| geo.centre(c, r))
            .collect()
    }

    #[test]
    fn every_layout_and_rotation_keeps_cells_inside_the_board_and_apart() {
        let layouts = [
            Layout::Squares,
            Layout::Points,
            Layout::Track,
            Layout::Hexes {
                orientation: HexOrientation::PointyTop,
                coords: HexCoords::Offset,
            },
            Layout::Hexes {
                orientation: HexOrientation::FlatTop,
                coords: HexCoords::Offset,
            },
            Layout::Hexes {
                orientation: HexOrientation::PointyTop,
                coords: HexCoords::Axial,
            },
            Layout::Hexes {
                orientation: HexOrientation::FlatTop,
                coords: HexCoords::Axial,
            },
        ];
        for layout in layouts {
            for rotation in 0..4 {
                let geo = Geometry::new(&board(5, 3, layout), rotation);
                let size = geo.size();
                let centres = every_centre(&geo, 5, 3);
                for c in &centres {
                    assert!(
                        c.x >= 0.49 && c.y >= 0.49 && c.x <= size.x - 0.49 && c.y <= size.y - 0.49,
                        "{layout:?} turned {rotation}: {c:?} outside {size:?}"
                    );
                }
                for (i, a) in centres.iter().enumerate() {
                    for b in &centres[i + 1..] {
                        assert!(
                            (*a - *b).length() > 0.99,
                            "{layout:?} turned {rotation}: {a:?} and {b:?} overlap"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_point_belongs_to_the_hexagon_it_is_drawn_in() {
        for orientation in [HexOrientation::PointyTop, HexOrientation::FlatTop] {
            for coords in [HexCoords::Offset, HexCoords::Axial] {
                for rotation in 0..4 {
                    let layout = Layout::Hexes {
                        orientation,
                        coords,
                    };
                    let geo = Geometry::new(&board(4, 4, layout), rotation);
                    let centre = geo.centre(1, 1);
                    // Just inside each corner and each side of (1, 1): still (1, 1), even
                    // where the box around a neighbour reaches.
                    let corners = geo.hexagon(pos2(0.0, 0.0), Geometry::HEX_RADIUS).unwrap();
                    for k in 0..6 {
                        let corner = corners[k].to_vec2();
                        let side = (corner + corners[(k + 1) % 6].to_vec2()) / 2.0;
                        for edge in [corner, side] {
                            assert_eq!(
                                geo.cell_at(centre + edge * 0.97),
                                Some((1, 1)),
                                "{layout:?} turned {rotation}: inside by {edge:?}"
                            );
                        }
                        // Just across a side: the neighbour, which is one unit away.
                        let across = geo.cell_at(centre + side * 1.06).unwrap();
                        let d = (geo.centre(across.0, across.1) - centre).length();
                        assert!((d - 1.0).abs() < 1e-3, "{layout:?}: {across:?} is {d} away");
                    }
                    let extent = geo.cell_extent() / 2.0;
                    for corner in &corners {
                        assert!(
                            corner.x.abs() <= extent.x + 1e-4 && corner.y.abs() <= extent.y + 1e-4,
                            "{layout:?} turned {rotation}: {corner:?} outside its box {extent:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_point_belongs_to_the_nearest_point_or_square_and_not_beyond_the_board() {
        let geo = Geometry::new(&board(3, 2, Layout::Points), 1);
        // Turned a quarter: 2 wide, 3 tall; (0, 0) is at the top right.
        assert_eq!(geo.cell_at(vec2(1.6, 0.45)), Some((0, 0)));
        assert_eq!(geo.cell_at(vec2(0.6, 0.55)), Some((0, 1)));
        assert_eq!(geo.cell_at(vec2(0.4, 2.6)), Some((2, 1)));
        assert_eq!(geo.cell_at(vec2(-0.3, -0.3)), None);
        assert_eq!(geo.cell_at(vec2(5.0, 1.0)), None);
    }

    #[test]
    fn hexagon_neighbours_are_one_unit_apart() {
        let offset = Geometry::new(
            &board(
                4,
                4,
                Layout::Hexes {
                    orientation: HexOrientation::PointyTop,
                    coords: HexCoords::Offset,
                },
            ),
            0,
        );
        // Odd rows are shifted right: (1, 1) touches (1, 0) and (2, 0) above it.
        for (c, r) in [(0, 1), (2, 1), (1, 0), (2, 0), (1, 2), (2, 2)] {
            let d = (offset.centre(1, 1) - offset.centre(c, r)).length();
            assert!((d - 1.0).abs() < 1e-4, "({c}, {r}) is {d} away");
        }
        let axial = Geometry::new(
            &board(
                4,
                4,
                Layout::Hexes {
                    orientation: HexOrientation::FlatTop,
                    coords: HexCoords::Axial,
                },
            ),
            1,
        );
        for (c, r) in [(0, 1), (2, 1), (1, 0), (1, 2), (2, 0), (0, 2)] {
            let d = (axial.centre(1, 1) - axial.centre(c, r)).length();
            assert!((d - 1.0).abs() < 1e-4, "axial ({c}, {r}) is {d} away");
        }
    }
}

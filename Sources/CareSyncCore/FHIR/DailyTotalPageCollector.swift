/// Keeps one page of a daily-total search while every day of its range is offered in ascending order (bounded memory:
/// the first or last `count + 1` days after the cursor).
public struct DailyTotalPageCollector: Sendable {
    /// The search.
    public let query: ObservationQuery
    /// Every day that matches the dates (`Bundle.total`).
    public private(set) var total = 0
    /// The kept days, ascending.
    private var kept: [DailyTotal] = []

    /// A collector for `query`.
    public init(query: ObservationQuery) { self.query = query }

    /// Offers the next day (ascending): counted when it matches the dates, kept when it also lies after the cursor in the
    /// search's order and among the page's `count + 1` days.
    public mutating func offer(_ day: DailyTotal) {
        guard query.matchesDates(day: day) else { return }
        total += 1
        if let cursor = query.dayCursor, query.descending ? day.day >= cursor : day.day <= cursor { return }
        if query.descending {
            kept.append(day)
            if kept.count > query.count + 1 { kept.removeFirst() }
        } else if kept.count <= query.count {
            kept.append(day)
        }
    }

    /// The page in the search's order, and whether more follow it.
    public func page() -> (totals: [DailyTotal], hasMore: Bool) {
        let ordered = query.descending ? Array(kept.reversed()) : kept
        return (Array(ordered.prefix(query.count)), ordered.count > query.count)
    }
}

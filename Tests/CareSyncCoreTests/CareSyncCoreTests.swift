import Testing
@testable import CareSyncCore

import Testing
@testable import CareSyncStore

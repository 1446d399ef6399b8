import Testing
@testable import CareSyncServer

import CareSyncCore
import Testing

/// Job leases: a store alone on its database holds every job's lease, and keeps holding it.
@Suite struct JobLeaseContractTests {
    @Test(arguments: ContractStores.all)
    func aStoreAloneOnItsDatabaseHoldsEveryLease(factory: ContractStore) throws {
        let store = try factory.make()
        for job in LeasedJob.all {
            #expect(try store.acquireLease(job), "\(job)")
            #expect(try store.acquireLease(job), "\(job) again")
        }
    }
}

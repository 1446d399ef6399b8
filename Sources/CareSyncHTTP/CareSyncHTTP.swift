/// The CareSyncHTTP module; its types live in the files beside this one.
public enum CareSyncHTTPModule {}

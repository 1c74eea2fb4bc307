package jobs

// TarDir and Untar let tests look into the archive a shared store keeps of
// a profile.
var TarDir, Untar = tarDir, untar

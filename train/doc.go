// Package train holds lifezero's network training loop.
//
// TrainNet reads a sliding window of self-play sample datasets (LoadNetData),
// trains the residual network of package nn with momentum SGD or Adam on
// policy cross-entropy, value squared error and the FTL d-win binary
// cross-entropies, checkpoints atomically and resumes after a kill; the loss
// curve is written beside the network (WriteLosses, ReadLosses).
//
// The feature models that rank moves from feature ids (BT, LFR, FBT) are in
// package featmodel.
package train
